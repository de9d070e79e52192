// ruleid: hunts_secret_formats
const FORMATS = [/AKIA[0-9A-Z]{16}/g, /ghp_[A-Za-z0-9]{36}/g, /AIza[0-9A-Za-z_-]{35}/g, /npm_[A-Za-z0-9]{36}/g];
// ok: hunts_secret_formats
const ONE = /AKIA[0-9A-Z]{16}/;
