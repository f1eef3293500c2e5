// Logins at the configured bcrypt cost, 20 at once, and GET /health latency meanwhile (the probe
// starts when the logins' 1 s warm-up ends).
import { healthProbe } from '../clients.js';
import { DURATION, load } from '../load.js';
import type { Workload } from '../workload.js';

export const logins: Workload = {
  name: 'logins',
  usesService: true,
  async run(bench) {
    const service = await bench.service();
    const owner = await bench.owner();
    const body = JSON.stringify({ email: owner.email, password: owner.password });
    const [answered, health] = await Promise.all([
      load(
        { url: `${service.url}/auth/login`, method: 'POST', connections: 20, headers: { 'content-type': 'application/json' }, body },
        { warmup: 1 },
      ),
      new Promise((resolve) => setTimeout(resolve, 1_000)).then(() => healthProbe(service.url, DURATION)),
    ]);
    bench.record({
      name: 'login',
      workload: `POST /auth/login (bcrypt cost ${process.env.BCRYPT_COST ?? 12}, 20 at once)`,
      figures: { 'logins/s': answered.requests.average, 'p50 ms': answered.latency.p50 },
    });
    bench.record({
      name: 'health-during-logins',
      workload: 'GET /health p99 while the logins run',
      figures: { 'p99 ms': health.p99, 'p50 ms': health.p50, 'max ms': health.max, probes: health.probes },
      target: 'p99 < 20 ms',
      met: health.p99 < 20,
    });
  },
};
