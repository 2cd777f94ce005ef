// The Node library's row of tests/bench/clients.sh (kind "lines"): one
// connection, made once; each line on stdin runs sbx.run(["true"]) to its
// exit status and answers one line, so clients.py times the library's loop
// beside the other clients in the same rounds.
//   node node-lines.mjs LIBRARY_INDEX_JS SOCKET WORKSPACE
import { createInterface } from "node:readline";

const [lib, socket, ws] = process.argv.slice(2);
const { connect } = await import(lib);
const sbx = await connect({ socket, autostart: false, clientName: "bench" });
for await (const _ of createInterface({ input: process.stdin })) {
  const st = await sbx.run(["true"], { cwd: ws }).exit;
  if (st.code !== 0) throw new Error(`true exited ${st.code}`);
  process.stdout.write("\n");
}
sbx.close();
