// Bytes hidden as invisible characters, and the characters' ordinary uses.
const decode = (v) => [...v].map((c) => c.codePointAt(0));
// ruleid: invisible_character_payload
const payload = decode(`󠅓󠅟󠅞󠅣󠅟󠅜󠅕󠄞󠅜󠅟󠅗󠄘󠄗󠅘󠅙󠅔󠅔󠅕󠅞󠄐󠅠󠅑󠅩󠅜󠅟󠅑󠅔󠄐󠅘󠅕󠅢󠅕󠄗󠄙`);
// ok: invisible_character_payload
const england = '🏴󠁧󠁢󠁥󠁮󠁧󠁿';
// ok: invisible_character_payload
const text = 'emoji ❤️ and ☺︎ with one selector each';
