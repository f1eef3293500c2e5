// Bounded retry with exponential back-off for start-up steps that depend on another service.

export interface RetryOptions {
  /** Total time allowed for retries, measured from the first attempt; 0 means a single attempt. */
  budgetMs: number;
  /** Only errors this accepts are retried; any other is thrown at once. */
  retryable(error: unknown): boolean;
  /** Called before each wait, e.g. to log one line per failed attempt. */
  onRetry(info: { attempt: number; delayMs: number; error: unknown }): void;
}

/**
 * Runs attempt until it resolves, waiting 0.5 s after the first failure and twice as long after
 * each next one, up to 5 s; when the budget is spent, throws the last error.
 */
export async function retryWithBackoff<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  const deadline = Date.now() + options.budgetMs;
  let delayMs = 500;
  for (let count = 1; ; count++) {
    try {
      return await attempt();
    } catch (error) {
      const remaining = deadline - Date.now();
      if (!options.retryable(error) || remaining <= 0) throw error;
      const wait = Math.min(delayMs, remaining);
      options.onRetry({ attempt: count, delayMs: wait, error });
      await new Promise((resolve) => setTimeout(resolve, wait));
      delayMs = Math.min(delayMs * 2, 5_000);
    }
  }
}
