import { describeProvider } from './provider-cases';

// Issue 25 §4 and issue 31 §1, under the React the package is developed with (19).
describeProvider('19.', { strictMountMakes: 1 });
