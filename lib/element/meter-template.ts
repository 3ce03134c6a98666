// The meter's shadow tree and its default look (about 1 KB of CSS). Every color,
// radius and gap is a custom property with a fallback, and each piece is a
// `::part`, so an app restyles it without reaching inside. Which pieces show is
// decided here by the state the meter writes on `.m`; the text is set in meter.ts.
const CSS = `:host{display:inline-block;font:inherit;color:var(--billing-color,inherit)}
.m{display:flex;flex-wrap:wrap;align-items:center;gap:var(--billing-gap,.5em);padding:var(--billing-padding,.25em .5em);border-radius:var(--billing-radius,6px);background:var(--billing-background,transparent)}
.m>*{display:none}
.m[s=loading] .l,.m[s=ready] .r,.m[s=empty] .r,.m[s=empty] .e,.m[s=error] .x{display:inline-flex;gap:var(--billing-gap,.5em);align-items:center}
.m .r[hidden]{display:none}
[part=credits]{font-weight:600}
[part=period]{color:var(--billing-accent,#0b6e3d)}
.e,.x{color:var(--billing-warning,#a4262c)}
[part=skeleton]{width:12em;height:1em;border-radius:4px;background:var(--billing-skeleton,#ddd);animation:p 1.2s ease-in-out infinite alternate}
@keyframes p{to{opacity:.4}}
@media (prefers-reduced-motion:reduce){[part=skeleton]{animation:none}}
button{font:inherit;cursor:pointer;padding:.1em .6em;border-radius:var(--billing-radius,6px);border:1px solid currentColor;background:var(--billing-button-background,#fff);color:var(--billing-button-color,#1a1a1a)}
.v{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}`;

/** The shadow tree of `<billing-meter>`: `s` on `.m` picks loading, ready, empty or error. */
export const METER_HTML = `<style>${CSS}</style><div class=m part=meter s=loading>
<span class=l><span part=skeleton aria-hidden=true></span><span class=v>Loading your quota…</span></span>
<span class=r part=free></span><span class=r part=credits></span><span class=r part=cost></span><span class=r part=period hidden></span>
<span class=e part=empty><slot name=empty>Out of credits.</slot><slot name=top-up></slot></span>
<span class=x part=error><slot name=error>Could not load your quota.</slot><button type=button part=retry>Retry</button></span>
</div><span class=v role=status part=announcer></span>`;
