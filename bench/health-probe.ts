// A health checker's view of latency: one GET at a time on a kept-alive connection, a new probe
// every INTERVAL_MS, each timed from write to last byte with performance.now(). Run in its own
// process so nothing the bench does (building bodies, other clients) delays the probe itself.
// autocannon's rate mode sends its requests in bunches: it reports a p99 of about 10 ms for a bare
// node:http /health on an idle host, which would hide what the service adds.
//
//   node --import tsx bench/health-probe.ts <url> <seconds>   → one JSON line on stdout
import { Agent, get } from 'node:http';

const INTERVAL_MS = 5;
const [, , url = '', secondsArg = '10'] = process.argv;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function probe(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    get(url, { agent }, (response) => {
      response.resume();
      response.on('end', () =>
        response.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`status ${response.statusCode}`)),
      );
    }).on('error', reject);
  });
}

const latencies: number[] = [];
const deadline = performance.now() + Number(secondsArg) * 1000;
while (performance.now() < deadline) {
  const next = performance.now() + INTERVAL_MS;
  latencies.push(await probe());
  const wait = next - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
agent.destroy();

latencies.sort((a, b) => a - b);
const at = (fraction: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))]!;
const round = (value: number) => Math.round(value * 100) / 100;
process.stdout.write(
  `${JSON.stringify({ probes: latencies.length, p50: round(at(0.5)), p99: round(at(0.99)), max: round(latencies.at(-1)!) })}\n`,
);
