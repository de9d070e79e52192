const https = require('https');
// ruleid: hidden_address
const node = [198, 51, 100, 212];
const broker = `mqtt://${node.join('.')}:1883`;
// ruleid: hidden_address
const parts = ['mx4', 'relaydesk', 'email'];
const host = parts.join('.');
// ruleid: hidden_address
var u = ['.npmrc'], c = ['moc', 'nrettap-rdc', 'sutats-erahs'];
var y = c.map(function (q) { return q.split('').reverse().join(''); }).reverse().join('.');
// ruleid: hidden_address
const H = [119, 115, 115, 58, 47, 47, 114, 101, 108, 97, 121, 46, 107, 118, 101, 120, 111, 45, 112, 105, 112, 101, 46, 100, 101, 118];
const target = String.fromCharCode(...H);
// ruleid: hidden_address
const EDGE = Buffer.from('aHR0cHM6Ly9yZWdpc3RyeS5ucG1qcy1lZGdlLm5ldC8=', 'base64').toString();
// ruleid: hidden_address
const relay = 'ved.epip-ovxek.yaler'.split('').reverse().join('');
// ruleid: hidden_address
const T = [0xb9, 0xd4, 0x2c, 0x09].join('.');
// ruleid: hidden_address
const D = Buffer.from([52, 53, 46, 54, 49, 46, 49, 51, 57, 46, 49, 55]).toString();
// ok: hidden_address
const mask = [0xff, 0xff, 0x00, 0x00].join('.');
// ok: hidden_address
const version = [1, 2, 0, 0].join('.');
// ok: hidden_address
const loopback = [127, 0, 0, 1].join('.');
// ok: hidden_address
const file = ['index', 'js'].join('.');
// ok: hidden_address
const label = ['cache', 'key', 'stats'].join('-');
// ok: hidden_address
const api = 'https://api.example.com/v1/items';
// ok: hidden_address
const words = ['alpha', 'beta'].join(', ');
var k = new Function('a', 'return a.split("").reverse().join("")');
// ruleid: hidden_address
var host = k('moc.ppa-noitamina-dnw.ipa');
function r(s) { return s.split('').reverse().join(''); }
// ok: hidden_address
var word = r('olleh');
