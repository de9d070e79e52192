// The loop cut into pieces of a list joined with a number that is not a literal.
// ruleid: emits_endless_loop
const tail = (n) => [';setTimeout(function', '(){', 'for(;;)', '{}', '},', String(n), ');'].join('');
