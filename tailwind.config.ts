import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        wuff: {
          50: "#f1f7f4",
          100: "#dcebe3",
          500: "#3f8a66",
          600: "#2f6f51",
          700: "#275a43",
          800: "#214a38",
        },
      },
      spacing: {
        topbar: "60px",
        sidebar: "200px",
      },
      height: {
        topbar: "60px",
      },
      width: {
        sidebar: "200px",
      },
    },
  },
} satisfies Config;
