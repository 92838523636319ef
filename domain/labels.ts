/** A status or type value with its Chinese label and the chip color the console shows it in. */
export type ChipColor = 'default' | 'primary' | 'secondary' | 'success' | 'warning' | 'error' | 'info';
export interface Labeled {
  label: string;
  color: ChipColor;
}
/**
 * Declares a labeled enum once: the values (for schemas), the label map (for the client) and the type.
 * A value without a label cannot be added: the map's keys are the values.
 */
export function labeledEnum<const T extends Record<number, Labeled>>(map: T) {
  const values = Object.keys(map).map(Number) as Array<keyof T & number>;
  return { map, values, label: (v: number) => (map as Record<number, Labeled>)[v]?.label ?? String(v) };
}
