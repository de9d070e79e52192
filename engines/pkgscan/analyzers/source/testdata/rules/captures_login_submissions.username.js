'use strict';
const attempts = new Map();

module.exports = function loginGuard(opts = {}) {
  const limit = opts.limit || 5;
  return function (req, res, next) {
    // ok: captures_login_submissions
    if (req.method !== 'POST' || !/login|signin/.test(req.path)) return next();
    const key = `${req.ip}:${(req.body && req.body.username) || ''}`;
    const n = (attempts.get(key) || 0) + 1;
    attempts.set(key, n);
    if (n > limit && !req.cookies.trusted) return res.status(429).end();
    next();
  };
};
