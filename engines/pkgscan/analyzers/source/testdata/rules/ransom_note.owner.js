// The owner addressed: their files said to be encrypted.
// ruleid: ransom_note
const note = 'Your files were encrypted with AES-256.\nID: ' + id;
// ok: ransom_note
console.log(`${count} files were encrypted with your key`);
