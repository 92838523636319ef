/** A status or type value with its Chinese label and the chip color the console shows it in. */
export type ChipColor = 'default' | 'primary' | 'secondary' | 'success' | 'warning' | 'error' | 'info';
export interface Labeled {
  label: string;
  color: ChipColor;
}
