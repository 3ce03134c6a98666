// Issue 31 §1: bootstrap-render.spec.ts again, under React 18.3 (the bottom of the peer range).
import './react-18';
import './bootstrap-render.spec';
