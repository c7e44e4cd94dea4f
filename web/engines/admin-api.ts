// What the journeys check and prepare on the server, as an admin, straight at the API (never
// through the proxy the journeys cut). Plain fetch and the shared types: none of the app's code.
import type { CarPark, Observation, Pcn, Permit, PermitKind, UserListResponse } from '@parkpatrol/shared';

export type AdminApi = {
  /** Each registration's notices on the server, each as its photos' hashes. */
  notices(registrations: readonly string[]): Promise<Record<string, Array<Array<{ sha256: string; clientSha256?: string | null }>>>>;
  /** A registration's notices on the server, each as GET /pcns/:id answers it (what the officer filed with it). */
  noticeDetails(registration: string): Promise<Pcn[]>;
  /** A permit for `registration` at the car park named `carParkName`, added as an admin adds one; its last day is `validUntil` (YYYY-MM-DD). */
  addPermit(carParkName: string, registration: string, kind: PermitKind, validUntil: string): Promise<Permit>;
  /** The observations the server holds for a registration. */
  observations(registration: string): Promise<Observation[]>;
  /**
   * A new car park where a stay applies (these minutes of consideration and grace, with the reason
   * when they are shorter than the Single Code's minimums), given to the officer.
   */
  stayCarParkFor(
    officerEmail: string,
    name: string,
    periods: Pick<CarPark, 'considerationMinutes' | 'graceMinutes' | 'minimumsOverrideReason'>,
  ): Promise<string>;
};

export async function signInAdmin(apiUrl: string): Promise<AdminApi> {
  const login = await fetch(`${apiUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: apiUrl },
    body: JSON.stringify({ email: 'admin@example.com', password: 'admin123' }),
  });
  if (!login.ok) throw new Error(`the admin could not sign in: ${login.status}`);
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const call = async <T>(path: string, init: { method?: string; body?: unknown; status?: number } = {}): Promise<T> => {
    const response = await fetch(`${apiUrl}/api${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, origin: apiUrl, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    if (init.status ? response.status !== init.status : !response.ok)
      throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: T }).data;
  };
  const noticeDetails = async (registration: string): Promise<Pcn[]> => {
    const list = await call<{ pcns: Pcn[] }>(`/pcns?scope=all&limit=100&search=${registration}`);
    const details: Pcn[] = [];
    for (const pcn of list.pcns.filter((row) => row.vehicleRegistration === registration)) details.push(await call<Pcn>(`/pcns/${pcn.id}`));
    return details;
  };
  return {
    async notices(registrations) {
      const found: Awaited<ReturnType<AdminApi['notices']>> = {};
      for (const registration of registrations) {
        found[registration] = (await noticeDetails(registration)).map((pcn) => pcn.images ?? []);
      }
      return found;
    },
    noticeDetails,
    async addPermit(carParkName, registration, kind, validUntil) {
      // As an admin sees them: every active car park.
      const carPark = (await call<CarPark[]>('/car-parks')).find((row) => row.name === carParkName);
      if (!carPark) throw new Error(`no car park ${carParkName}`);
      return call<Permit>(`/car-parks/${carPark.id}/permits`, {
        method: 'POST',
        body: { vehicleRegistration: registration, kind, validUntil, note: 'Added by the browser journeys' },
        // A permit added answers 201 Created: any other success is not the API these journeys know.
        status: 201,
      });
    },
    async observations(registration) {
      const list = await call<{ observations: Observation[] }>('/observations?limit=100');
      return list.observations.filter((row) => row.vehicleRegistration === registration);
    },
    async stayCarParkFor(officerEmail, name, periods) {
      const carPark = await call<CarPark>('/car-parks', {
        method: 'POST',
        body: {
          name,
          siteCode: name
            .replace(/[^A-Z0-9]/gi, '')
            .slice(-12)
            .toUpperCase(),
        },
      });
      await call(`/car-parks/${carPark.id}`, { method: 'PUT', body: { stayAppliesByDefault: true, ...periods } });
      const { users } = await call<UserListResponse>(`/users?search=${encodeURIComponent(officerEmail)}`);
      const officer = users.find((user) => user.email === officerEmail);
      if (!officer) throw new Error(`no user ${officerEmail}`);
      await call(`/car-parks/${carPark.id}/assign-user`, { method: 'POST', body: { userId: officer.id } });
      return carPark.id;
    },
  };
}
