/**
 * Enums and state machines declared once. An enum's members are written as `name: [value, label, colour]`;
 * the result gives the value type (`EnumValue<typeof E>`), the named values (`E.is.pending`), the label
 * map the status chip shows (`E.map`), the values and labels a filter select offers (`E.values`,
 * `E.label`) and the Chinese description the server's schema carries (`E.description`: "状态：0 待审核,
 * 1 待打款…"). A state machine (`defineTransitions`) lists each action's source states and target: the
 * server's conditional update moves only from `from`, the page offers an action only in those states.
 */
import type { ChipColor, Labeled } from './labels';

type Member = readonly [value: number, label: string, color: ChipColor];

export interface DefinedEnum<N extends string, V extends number> {
  /** The title of the field ("状态"). */
  readonly title: string;
  /** "0 待审核, 1 待打款, …": every value with its label, for the schema's description. */
  readonly description: string;
  /** name → value: `WithdrawStatus.is.pending`. */
  readonly is: { readonly [K in N]: V };
  /** The values in ascending order (the order of the schema's `enum` and of a select's options). */
  readonly values: V[];
  /** value → label and chip colour (StatusChip's `map`). */
  readonly map: Readonly<Record<V, Labeled>>;
  label: (value: number) => string;
}

/** The value type of an enum declared with `defineEnum`. */
export type EnumValue<E> = E extends DefinedEnum<string, infer V> ? V : never;

export function defineEnum<const T extends Record<string, Member>>(
  title: string,
  members: T,
): DefinedEnum<keyof T & string, T[keyof T][0]> {
  type V = T[keyof T][0];
  const list = Object.entries(members) as Array<[keyof T & string, Member]>;
  const is = Object.fromEntries(list.map(([name, [value]]) => [name, value]));
  const map = Object.fromEntries(list.map(([, [value, label, color]]) => [value, { label, color }]));
  return {
    title,
    description: list.map(([, [value, label]]) => `${value} ${label}`).join(', '),
    is: is as { [K in keyof T & string]: V },
    values: list.map(([, [value]]) => value).sort((a, b) => a - b) as V[],
    map: map as Record<V, Labeled>,
    label: (value: number) => (map as Record<number, Labeled>)[value]?.label ?? String(value),
  };
}

export interface Transition<S extends number> {
  /** The button's label. */
  readonly label: string;
  /** The states the action may start from: one conditional UPDATE per state, in this order. */
  readonly from: readonly S[];
  readonly to: S;
}

export type Transitions<A extends string, S extends number> = { readonly [K in A]: Transition<S> } & {
  /** The actions offered in `status`, in declaration order (the page's buttons). */
  actionsIn(status: number): A[];
  /** Whether `action` may start from `status`. */
  allows(action: A, status: number): boolean;
};

/** Declares the actions of a state machine over the values of `_states` (which types `from` and `to`). */
export function defineTransitions<S extends number, const T extends Record<string, Transition<S>>>(
  _states: DefinedEnum<string, S>,
  actions: T,
): Transitions<keyof T & string, S> & T {
  const names = Object.keys(actions) as Array<keyof T & string>;
  const allows = (action: keyof T & string, status: number) =>
    (actions[action].from as readonly number[]).includes(status);
  return {
    ...actions,
    actionsIn: (status: number) => names.filter((a) => allows(a, status)),
    allows,
  };
}
