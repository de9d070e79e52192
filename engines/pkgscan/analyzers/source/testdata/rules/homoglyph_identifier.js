// Names mixing Latin with Cyrillic look-alikes, and names in one script.
function isValid(v) { return v === 1; }
// ruleid: homoglyph_identifier
function іsValid(v) { run(); return isValid(v); }
// ok: homoglyph_identifier
const счёт = 3;
// ok: homoglyph_identifier
var sinφ0 = Math.sin(φ0);
// ok: homoglyph_identifier
const label = 'сount';
