# ASCII written as Unicode tag characters, and a flag emoji's few tags.
# ruleid: invisible_character_payload
note = '󠁦󠁥󠁴󠁣󠁨󠀨󠀧󠁨󠁴󠁴󠁰󠁳󠀺󠀯󠀯󠁥󠁸󠁡󠁭󠁰󠁬󠁥󠀮󠁩󠁮󠁶󠁡󠁬󠁩󠁤󠀯󠁸󠀧󠀩';
# ok: invisible_character_payload
flag = '🏴󠁧󠁢󠁥󠁮󠁧󠁿'
