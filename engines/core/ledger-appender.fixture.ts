// Test fixture: a separate process appending to a shared ledger file, to prove concurrent appends keep one chain.
import BetterSqlite3 from 'better-sqlite3';
import { Ledger } from './ledger.js';

const [file, actor, countText] = process.argv.slice(2);
if (file === undefined || actor === undefined || countText === undefined) throw new Error('usage: ledger-appender FILE ACTOR COUNT');
const db = new BetterSqlite3(file);
db.pragma('busy_timeout = 20000');
const ledger = new Ledger(db, 'custody');
for (let i = 0; i < Number(countText); i++) ledger.append({ kind: 'ingest', actor, payload: { i } });
db.close();
