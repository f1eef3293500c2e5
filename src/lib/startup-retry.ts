// Bounded retry with exponential back-off for start-up steps that depend on another service.

export interface RetryOptions {
  /** Total time allowed for retries, measured from the first attempt; 0 means a single attempt. */
  budgetMs: number;
  /** Only errors this accepts are retried; any other is thrown at once. */
  retryable(error: unknown): boolean;
  /** Called before each wait, e.g. to log one line per failed attempt. */
  onRetry(info: { attempt: number; delayMs: number; error: unknown }): void;
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/** Runs attempt until it resolves; when the budget is spent, throws the last error. */
export async function retryWithBackoff<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  const deadline = Date.now() + options.budgetMs;
  let delayMs = options.initialDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 5_000;
  for (let count = 1; ; count++) {
    try {
      return await attempt();
    } catch (error) {
      const remaining = deadline - Date.now();
      if (!options.retryable(error) || remaining <= 0) throw error;
      const wait = Math.min(delayMs, remaining);
      options.onRetry({ attempt: count, delayMs: wait, error });
      await new Promise((resolve) => setTimeout(resolve, wait));
      delayMs = Math.min(delayMs * 2, maxDelayMs);
    }
  }
}
