// the maintainers' address, written out
const CONTACT = 'security@pkg-maintainers.org'

module.exports = function report (issue) {
  // ok: hidden_mail_address
  return `Please report ${issue} to ${CONTACT}`
}
