const https = require('https');
// ruleid: baas_database_write
const HOST = `${PROJECT}.firebaseio.com`;
// ok: baas_database_write
const DOCS = 'https://firebase.google.com/docs/database';
