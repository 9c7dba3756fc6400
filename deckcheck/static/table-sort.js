// Sort a results table by a column when its header button is pressed (keyboard too).
document.querySelectorAll("table.sortable").forEach((table) => {
  table.querySelectorAll("button.sort").forEach((button) => {
    button.addEventListener("click", () => {
      const column = Number(button.dataset.column);
      const ascending = button.getAttribute("aria-sort") !== "ascending";
      const body = table.tBodies[0];
      const rows = Array.from(body.rows);
      rows.sort((a, b) => {
        const x = a.cells[column].textContent.trim();
        const y = b.cells[column].textContent.trim();
        return (ascending ? 1 : -1) * x.localeCompare(y, undefined, { numeric: true, sensitivity: "base" });
      });
      rows.forEach((row) => body.appendChild(row));
      table.querySelectorAll("button.sort").forEach((b) => b.removeAttribute("aria-sort"));
      button.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    });
  });
});
