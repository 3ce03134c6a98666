// Issue 31 §1: switch-client.spec.ts again, under React 18.3 (the bottom of the peer range).
import './react-18';
import './switch-client.spec';
