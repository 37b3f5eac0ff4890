/** The site's polling hook (it pauses while the page is hidden), shared with the wallet. */
export { usePolled } from '../../../app/use-polled';
