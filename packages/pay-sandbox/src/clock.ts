/**
 * The sandbox's notion of "now": a base clock plus an offset that the control API moves
 * forward, so tests can expire tokens (and later payment references) without waiting.
 */
export class SandboxClock {
  private offsetMs = 0;

  constructor(private readonly base: () => number) {}

  now(): number {
    return this.base() + this.offsetMs;
  }

  iso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
