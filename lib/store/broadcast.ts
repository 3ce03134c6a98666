import { Observable, type Subscriber } from 'rxjs';

/**
 * What the store needs of an RxJS `Subject`, without its code in the bundle
 * of an app that imports only `createClient` (about 0.5 KB gzipped): each
 * value to every subscriber of the moment, and `complete()` for good. As with
 * a `Subject`, a subscriber added or removed while a value is delivered counts
 * from the next value on, and one that comes after the end is told it at once.
 */
export function broadcast<T>() {
  const subscribers = new Set<Subscriber<T>>();
  let ended = false;
  // `first()` to each subscriber (unless `null`), then every value: a `BehaviorSubject`'s contract.
  const startingWith = (first: () => T | null) =>
    new Observable<T>((subscriber) => {
      if (ended) return subscriber.complete();
      subscribers.add(subscriber);
      const value = first();
      if (value !== null) subscriber.next(value);
      return () => subscribers.delete(subscriber);
    });
  return {
    /** Every value from the subscription on. */
    observable: startingWith(() => null),
    startingWith,
    /** Whether anyone subscribes: a value nobody hears need not be sent. */
    observed: () => subscribers.size > 0,
    next: (value: T) => [...subscribers].forEach((subscriber) => subscriber.next(value)),
    complete() {
      ended = true;
      [...subscribers].forEach((subscriber) => subscriber.complete());
    },
  };
}
