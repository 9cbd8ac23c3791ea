// gpubench report: the charts are SVG, drawn when the page was written, and show without this script. It only lets
// a click on a legend entry (or Enter on it) hide that series, and a second click show it again.
(function () {
  'use strict';

  function toggle(entry) {
    const chart = entry.closest('svg');
    const hidden = entry.classList.toggle('off');
    chart.querySelectorAll('g.series[data-series="' + entry.dataset.series + '"]')
        .forEach((series) => series.classList.toggle('hidden', hidden));
  }

  document.addEventListener('DOMContentLoaded', () => {
    document.querySelectorAll('svg.chart g.entry').forEach((entry) => {
      entry.setAttribute('tabindex', '0');
      entry.setAttribute('role', 'button');
      entry.addEventListener('click', () => toggle(entry));
      entry.addEventListener('keydown', (event) => { if (event.key === 'Enter') toggle(entry); });
    });
  });
})();
