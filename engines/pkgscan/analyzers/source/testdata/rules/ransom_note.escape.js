// The payment asked for after a literal's line break escape.
// ruleid: ransom_note
const pay = 'ID: ' + id + '\nSend 0.05 BTC to the address below';
