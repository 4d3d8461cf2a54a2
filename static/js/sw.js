// Coins' service worker: shows "your turn" notifications sent by the server (Web Push) and
// opens the table when one is clicked. It caches nothing: the site needs the server anyway.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "Coins", {
      body: data.body || "",
      tag: data.tag,
      data: { url: data.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(
    self.clients.matchAll({ type: "window" }).then((windows) => {
      const open = windows.find((client) => client.url === url && "focus" in client);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
