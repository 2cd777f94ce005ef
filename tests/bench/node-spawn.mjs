// Spawn latency through clients/node: one connection, run(["true"]) N
// times, interleaved round by round with `sbxctl run -- true` and a bare
// `true` (both started by child_process.spawn, as an extension without the
// library would start them), so every peer sees the same machine state.
// Prints a markdown table; p50 is the median.
//   node node-spawn.mjs LIBRARY_INDEX_JS SOCKET SBXCTL WORKSPACE RUNS WARMUP
import { spawn } from "node:child_process";

const [lib, socket, sbxctl, ws, runs, warmup] = process.argv.slice(2);
const { connect } = await import(lib);
const sbx = await connect({ socket, autostart: false, clientName: "bench" });

const wait = (cmd, args) =>
  new Promise((resolve, reject) => {
    const c = spawn(cmd, args, { cwd: ws, stdio: "ignore" });
    c.on("error", reject);
    c.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}`))));
  });

const wall = [];
const peers = [
  ["library: sbx.run(['true'])", async () => {
    const st = await sbx.run(["true"], { cwd: ws }).exit;
    if (st.code !== 0) throw new Error(`true exited ${st.code}`);
    return st;
  }],
  ["sbxctl run -- true", () => wait(sbxctl, ["--no-autostart", "--socket", socket, "run", "--", "true"])],
  ["bare true", () => wait("true", [])],
];
const times = peers.map(() => []);

for (let i = 0; i < Number(warmup); i++) for (const [, f] of peers) await f();
for (let i = 0; i < Number(runs); i++) {
  // Rotate the order so no peer always runs right after another.
  for (let k = 0; k < peers.length; k++) {
    const j = (i + k) % peers.length;
    const t0 = process.hrtime.bigint();
    const st = await peers[j][1]();
    times[j].push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (j === 0) wall.push(Number(st.status.wallUs) / 1e3);
  }
}
sbx.close();

const q = (a, p) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
};
const row = (name, a) =>
  `| ${name} | ${q(a, 0.5).toFixed(2)} | ${q(a, 0.9).toFixed(2)} | ${(a.reduce((x, y) => x + y, 0) / a.length).toFixed(2)} | ${Math.min(...a).toFixed(2)} |`;
console.log("| peer | p50 ms | p90 ms | mean ms | min ms |");
console.log("|---|---|---|---|---|");
peers.forEach(([name], j) => console.log(row(name, times[j])));
console.log(row("(the command's wall time in the daemon, ExitStatus.wall_us)", wall));
