// A WebSocket client masking its frames with the frame's four random bytes.
function frame(socket, payload, maskKey) {
  const out = Buffer.alloc(payload.length);
  // ok: sends_xor_masked_record
  for (let i = 0; i < payload.length; i++) out[i] = payload[i] ^ maskKey[i % maskKey.length];
  socket.write(JSON.stringify({ len: out.length }));
  socket.end(out);
}
