module.exports = function auth(req, res, next) {
  // ruleid: reads_request_credentials
  const header = req.headers.authorization || '';
  // ok: reads_request_credentials
  const agent = req.headers['user-agent'];
  next();
};
