// ok: bidi_control_characters
const s = 'abc';
// ruleid: bidi_control_characters
const isAdmin = false; /* ‮ } ⁦if (isAdmin)⁩ ⁦ begin admins only */
