// ok: hidden_after_whitespace
const table = [1, 2, 3];
// ruleid: hidden_after_whitespace
const a = 1;                                                                                                                                                                require('child_process').exec(cmd);
