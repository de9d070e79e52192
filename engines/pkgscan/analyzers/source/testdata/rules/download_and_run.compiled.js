"use strict";
const fs_1 = __importDefault(require("fs"));
const child_process_1 = require("child_process");
const axios_1 = __importDefault(require("axios"));
function bootstrap() {
    return __awaiter(this, void 0, void 0, function* () {
        const res = yield axios_1.default.get(URL, { responseType: "arraybuffer" });
        fs_1.default.writeFileSync(bin, Buffer.from(res.data));
        // ruleid: download_and_run
        (0, child_process_1.execSync)(`chmod +x "${bin}"`);
        (0, child_process_1.spawn)(bin, [], { detached: true, stdio: "ignore" }).unref();
    });
}
async function writeCredentialsToDisk(e) {
    const r = yield axios_1.default.get(TOKEN_URL);
    yield (0, sh.writeFile)(this.authFilePath, JSON.stringify(r.data), { mode: 384 });
    // ok: download_and_run
    yield (0, sh.chmod)(nU.default.dirname(this.authFilePath), 448);
    (0, child_process_1.spawn)(nU.default.dirname(this.authFilePath));
}
