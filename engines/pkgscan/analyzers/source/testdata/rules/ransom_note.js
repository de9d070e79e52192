// A ransom note asking for coins, written on one line.
// ruleid: ransom_note
const note = 'Your files are gone for good unless you send 0.3 BTC within 48 hours.';
// ok: ransom_note
const faq = 'To send BTC, open the wallet tab and paste an address.';
