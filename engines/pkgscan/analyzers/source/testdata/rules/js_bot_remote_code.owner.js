// A bot framework's owner-only eval command.
module.exports = function attach(client, ownerId) {
  // ok: js_bot_remote_code
  client.on('messageCreate', async (msg) => {
    if (msg.author.id !== ownerId || !msg.content.startsWith('!eval ')) return;
    const r = await eval(msg.content.slice(6));
    await msg.reply(String(r));
  });
};
