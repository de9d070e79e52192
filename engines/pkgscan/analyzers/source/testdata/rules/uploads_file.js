// A file stream appended to a form.
const FormData = require('form-data');
const fs = require('fs');
const form = new FormData();
// ruleid: uploads_file
form.append('file', fs.createReadStream(zipPath));
// ok: uploads_file
form.append('name', 'report');
