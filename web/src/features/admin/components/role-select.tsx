import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import type { Role } from '../api/types';

const OPTIONS: { value: Role; label: string }[] = [
  { value: 'client', label: 'Client' },
  { value: 'coach', label: 'Coach' },
  { value: 'gym', label: 'Gym' },
  { value: 'admin', label: 'Admin' },
];

/** The role picker of the create and edit forms. */
export function RoleSelect({ id, value, onChange }: { id: string; value: Role; onChange: (role: Role) => void }) {
  return (
    <Select value={value} onValueChange={(next) => onChange(next as Role)}>
      <SelectTrigger id={id}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {OPTIONS.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
