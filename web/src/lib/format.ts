/** 50 → "50", 62.5 → "62.50": a dollar amount without a needless ".00". */
export function formatAmount(value: number | string | null | undefined): string {
  const n = typeof value === 'string' ? Number.parseFloat(value) : (value ?? 0);
  if (!Number.isFinite(n)) return '0';
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/** 3.14159 → "3.1" miles. */
export function formatMiles(value: number): string {
  return value.toFixed(1);
}
