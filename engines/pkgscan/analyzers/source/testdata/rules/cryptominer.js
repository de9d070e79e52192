// ruleid: cryptominer
const pool = 'stratum+tcp://pool.hashvault-mirror.net:3333';
// ok: cryptominer
const db = 'tcp://db.example.org:5432';
