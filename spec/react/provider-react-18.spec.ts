import './react-18';
import { describeProvider } from './provider-cases';

// Issue 31 §1: the same cases under React 18.3, the bottom of the peer range, whose StrictMode
// double render drops the first render's hooks (refs included).
describeProvider('18.3.', { strictMountMakes: 2 });
