import { Link, useParams } from 'react-router-dom';
import { paths } from '../../config/paths.ts';
import { PageHeading } from '../../lib/page-heading.tsx';
import { PermitsPanel } from './permits-panel.tsx';

/** An admin's page for one car park's permits, from Manage Car Parks. */
export function CarParkPermitsScreen() {
  const { id = '' } = useParams();
  return (
    <div className="page">
      <div className="page-header">
        <PageHeading>Permits</PageHeading>
        <Link to={paths.admin.carParks}>Back to car parks</Link>
      </div>
      <PermitsPanel carParkId={id} />
    </div>
  );
}
