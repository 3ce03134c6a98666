// app/export/billing-config.ts
// PLACEHOLDERS: your billing API's base URL and your application's key.
// Try-out values: the reference backend of nextjs.md ("Try it"). Both halves read this
// module; it holds no secret (NEXT_PUBLIC_ variables are built into the browser's code).
export const BILLING_URL = process.env.NEXT_PUBLIC_BILLING_URL ?? 'http://127.0.0.1:8788';
export const APP_KEY = 'poster';
