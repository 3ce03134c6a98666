// app/layout.tsx: your app's root layout; this minimal one is enough to try the recipe.
import type { ReactNode } from 'react';

export const metadata = { title: 'Export' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
