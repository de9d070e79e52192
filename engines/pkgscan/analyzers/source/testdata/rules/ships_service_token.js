// ruleid: ships_service_token
const auth = ['github_pat_11BCXQ7YI0', 'kV3mXrT9aLq2Wz8pNs4Hd1_', 'Fg7Yh2Jk9Lm3Np5Qr8St1Uv4Wx6Yz0Ab2Cd5Ef8Gh1Ij4Kl7Mn0Op3Qr6'].join('');
// ruleid: ships_service_token
const publish = 'npm_Q8rT2vB8nW5yP3sD6fG1hJ0cVbN7qEaZkLmX';
// ruleid: ships_service_token
const bot = '7312456789:AAHk2LmQv7RtB3nW8pZs1Hd6Yc4Jf0Ga5Ue';
// ok: ships_service_token
const token = process.env.GITHUB_TOKEN;
// ok: ships_service_token
const placeholder = 'npm_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX';
// ruleid: ships_service_token
const transport = nodemailer.createTransport({ host: 'smtp.mail.example.com', auth: { user: 'diag@example.com', pass: 'app-password-0000' } });
// ok: ships_service_token
const own = nodemailer.createTransport({ host: opts.host, auth: { user: opts.user, pass: opts.pass } });
