module.exports = {
  diag: {
    h: 'disc' + 'ord' + '.com',
    // ruleid: discord_webhook
    p: ['/api', 'webhooks', '1249981170327765042'].join('/'),
  },
  // ok: discord_webhook
  docs: ['/api', 'webhooks', 'create'].join('/'),
};
