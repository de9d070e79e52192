// ok: zero_width_in_code
const ab = 1;
// ruleid: zero_width_in_code
const a​b = 2;
