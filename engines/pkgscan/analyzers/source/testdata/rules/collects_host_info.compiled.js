"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const node_os_1 = require("node:os");
const report = {
    // ruleid: collects_host_info
    host: (0, node_os_1.hostname)(),
    // ok: collects_host_info
    platform: `${process.platform}-${process.arch}`,
};
